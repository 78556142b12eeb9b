// The `ml` vocabulary shipped with the library (the upstream's third one): models, datasets, metrics, papers and
// methods, with the relationships a research group records (trained_on, evaluated_on, outperforms, ...).
// Synonyms fold the usual abbreviations of well-known models, datasets and metrics.
import type { Vocabulary } from '../model/registry.js';

const MODEL_LIKE = ['model', 'architecture', 'method', 'algorithm'];
const WORK = ['paper', 'experiment', 'benchmark'];

export const ml: Vocabulary = {
  description: 'Models, datasets, metrics and papers for machine-learning research',
  entity_types: [
    ...MODEL_LIKE,
    ...WORK,
    'dataset',
    'metric',
    'task',
    'hyperparameter',
    'framework',
    'hardware',
    'author',
    'organization',
    'loss_function',
    'optimizer',
  ],
  predicate_classes: ['training', 'evaluation', 'comparison', 'lineage', 'authorship', 'usage'],
  predicates: {
    trained_on: { class: 'training', subject_types: MODEL_LIKE, object_types: ['dataset'] },
    fine_tuned_on: { class: 'training', subject_types: MODEL_LIKE, object_types: ['dataset', 'task'] },
    pretrained_on: { class: 'training', subject_types: MODEL_LIKE, object_types: ['dataset'] },
    uses_optimizer: { class: 'training', subject_types: MODEL_LIKE, object_types: ['optimizer'] },
    uses_loss: { class: 'training', subject_types: MODEL_LIKE, object_types: ['loss_function'] },
    evaluated_on: {
      class: 'evaluation',
      subject_types: [...MODEL_LIKE, ...WORK],
      object_types: ['dataset', 'benchmark', 'task'],
    },
    measured_by: { class: 'evaluation', subject_types: [...MODEL_LIKE, ...WORK, 'task'], object_types: ['metric'] },
    achieves: { class: 'evaluation', subject_types: MODEL_LIKE, object_types: ['metric'] },
    outperforms: { class: 'comparison', subject_types: MODEL_LIKE, object_types: MODEL_LIKE },
    comparable_to: { class: 'comparison', subject_types: MODEL_LIKE, object_types: MODEL_LIKE },
    based_on: { class: 'lineage', subject_types: MODEL_LIKE, object_types: MODEL_LIKE },
    derived_from: {
      class: 'lineage',
      subject_types: ['dataset', ...MODEL_LIKE],
      object_types: ['dataset', ...MODEL_LIKE],
    },
    introduced_in: {
      class: 'lineage',
      subject_types: [...MODEL_LIKE, 'dataset', 'metric', 'task'],
      object_types: ['paper'],
    },
    authored_by: {
      class: 'authorship',
      subject_types: ['paper', ...MODEL_LIKE, 'dataset'],
      object_types: ['author', 'organization'],
    },
    affiliated_with: { class: 'authorship', subject_types: ['author'], object_types: ['organization'] },
    cites: { class: 'authorship', subject_types: ['paper'], object_types: ['paper'] },
    implemented_in: { class: 'usage', subject_types: MODEL_LIKE, object_types: ['framework'] },
    runs_on: { class: 'usage', subject_types: [...MODEL_LIKE, 'experiment'], object_types: ['hardware'] },
    solves: { class: 'usage', subject_types: MODEL_LIKE, object_types: ['task'] },
  },
  synonyms: {
    model: {
      'bidirectional encoder representations from transformers': ['bert'],
      'generative pre-trained transformer': ['gpt'],
      'residual network': ['resnet'],
      'long short-term memory': ['lstm'],
      'convolutional neural network': ['cnn', 'convnet'],
      'recurrent neural network': ['rnn'],
      'graph neural network': ['gnn'],
      'vision transformer': ['vit'],
      'variational autoencoder': ['vae'],
      'generative adversarial network': ['gan'],
      'support vector machine': ['svm'],
    },
    dataset: {
      imagenet: ['ilsvrc', 'imagenet-1k', 'ilsvrc2012'],
      'cifar-10': ['cifar10'],
      'cifar-100': ['cifar100'],
      mnist: ['mnist digits'],
      'common crawl': ['commoncrawl', 'cc'],
      squad: ['stanford question answering dataset'],
    },
    metric: {
      accuracy: ['acc', 'top-1 accuracy'],
      'f1 score': ['f1', 'f1-score', 'f-measure'],
      'area under the roc curve': ['auc', 'auroc', 'roc auc'],
      'mean average precision': ['map', 'mAP'],
      bleu: ['bleu score'],
      perplexity: ['ppl'],
      'root mean squared error': ['rmse'],
      'mean absolute error': ['mae'],
    },
    optimizer: {
      adam: ['adaptive moment estimation'],
      'stochastic gradient descent': ['sgd'],
    },
    framework: {
      pytorch: ['torch'],
      tensorflow: ['tf'],
    },
  },
};
